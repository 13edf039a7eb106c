c Problem:    
c Rows:       2
c Columns:    2
c Non-zeros:  4
c Status:     INTEGER EMPTY
c Objective:  obj = 0 (MINimum)
c
s mip 2 2 n 0
i 1 0
i 2 0
j 1 0
j 2 0
e o f
