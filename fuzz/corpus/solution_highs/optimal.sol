Model status
Optimal

# Primal solution values
Feasible
Objective 10
# Columns 4
x 2
y 0
z 1
w -2
# Rows 3
c1 4
c2 3
c3 2

# Dual solution values
None

# Basis
HiGHS_basis_file v2
None
