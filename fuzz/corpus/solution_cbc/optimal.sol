Optimal - objective value 10.00000000
      0 x                      2                       0
      1 y                      0                      -1
      2 z                      1                      -2
      3 w                     -2                      -0
