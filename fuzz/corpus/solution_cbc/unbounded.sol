Unbounded - objective value 0.00000000
      0 x                      0                       1
      1 y                      0                       1
