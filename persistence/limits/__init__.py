"""Stores of rate budgets and connection caps shared beyond one process: the workers' supervisor, or Redis."""
