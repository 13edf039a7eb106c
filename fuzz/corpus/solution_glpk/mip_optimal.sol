c Problem:    
c Rows:       3
c Columns:    4
c Non-zeros:  8
c Status:     INTEGER OPTIMAL
c Objective:  obj = 10 (MAXimum)
c
s mip 3 4 o 10
i 1 4
i 2 3
i 3 2
j 1 2
j 2 0
j 3 1
j 4 -2
e o f
