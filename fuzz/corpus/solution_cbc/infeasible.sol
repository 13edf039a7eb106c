Infeasible - objective value 3.00000000
      0 x                      3                       0
      1 y                      0                       0
