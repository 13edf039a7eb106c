Model status
Time limit reached

# Primal solution values
Feasible
Objective 62463
# Columns 300
x0 0
x1 1
x2 0
x3 1
x4 1
x5 1
x6 0
x7 0
x8 0
x9 1
x10 1
x11 0
x12 0
x13 1
x14 0
x15 0
x16 0
x17 0
x18 0
x19 0
x20 0
x21 0
x22 0
x23 0
x24 0
x25 0
x26 1
x27 1
x28 1
x29 1
x30 0
x31 0
x32 0
