Model status
Optimal

# Primal solution values
Feasible
Objective 10
# Columns -3
x 2 0
z 1 2
w -2 3
