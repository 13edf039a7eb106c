c Problem:    
c Rows:       2
c Columns:    2
c Non-zeros:  4
c Status:     INFEASIBLE (FINAL)
c Objective:  obj = 2 (MINimum)
c
s bas 2 2 n i 2
i 1 b 2 0
i 2 u 2 1
j 1 b 2 0
j 2 l 0 0
e o f
