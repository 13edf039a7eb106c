c Problem:    
c Rows:       15
c Columns:    300
c Non-zeros:  4500
c Status:     INTEGER NON-OPTIMAL
c Objective:  obj = 62519 (MAXimum)
c
s mip 15 300 f 62519
i 1 38448
i 2 37696
i 3 36637
i 4 37642
i 5 37914
i 6 39134
i 7 37402
i 8 35202
i 9 33353
i 10 37148
i 11 36002
i 12 37661
i 13 37848
i 14 35909
i 15 38713
j 1 0
j 2 1
j 3 0
j 4 1
j 5 1
j 6 1
j 7 0
j 8 0
j 9 0
j 10 1
j 11 0
j 12 0
j 13 0
j 14 1
j 15 0
j 16 0
j 17 0
