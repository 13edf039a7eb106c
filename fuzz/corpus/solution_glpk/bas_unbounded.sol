c Problem:    
c Rows:       1
c Columns:    2
c Non-zeros:  2
c Status:     UNBOUNDED
c Objective:  obj = 1 (MAXimum)
c
s bas 1 2 f n 1
i 1 u 1 1
j 1 b 1 0
j 2 l 0 2
e o f
