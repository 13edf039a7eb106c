c Problem:    
c Rows:       3
c Columns:    4
c Non-zeros:  8
c Status:     OPTIMAL
c Objective:  obj = 11 (MAXimum)
c
s bas 3 4 f f 11
i 1 u 4 2
i 2 b 3.5 0
i 3 b 3 0
j 1 u 3 1
j 2 l 0 0
j 3 b 0.5 0
j 4 l -2 0
e o f
