"""Process entry points: the command line, serving (one process or a supervisor of workers), schema
export and simulation."""
