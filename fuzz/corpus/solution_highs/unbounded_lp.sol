Model status
Unbounded

# Primal solution values
Feasible
Objective 1
# Columns 2
x 1
y 0
# Rows 1
c1 1

# Dual solution values
Infeasible
# Columns 2
x 0
y 2
# Rows 1
c1 1

# Basis
HiGHS_basis_file v2
Valid
# Columns 2
x 1
y 0
# Rows 1
c1 2
