"""A metric across an ordered series of systems: data, change points, ranking, scaling."""
