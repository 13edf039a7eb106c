c Problem:    
c Rows:       5
c Columns:    40
c Non-zeros:  199
c Status:     INTEGER UNDEFINED
c Objective:  obj = 0 (MINimum)
c
s mip 5 40 u 0
i 1 0
i 2 0
i 3 0
i 4 0
i 5 0
j 1 0
j 2 0
j 3 0
j 4 0
j 5 0
j 6 0
j 7 0
j 8 0
j 9 0
j 10 0
j 11 0
j 12 0
j 13 0
j 14 0
j 15 0
j 16 0
j 17 0
j 18 0
j 19 0
j 20 0
j 21 0
j 22 0
j 23 0
j 24 0
j 25 0
j 26 0
j 27 0
j 28 0
j 29 0
j 30 0
j 31 0
j 32 0
j 33 0
j 34 0
j 35 0
j 36 0
j 37 0
j 38 0
j 39 0
j 40 0
e o f
