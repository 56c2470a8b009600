"""Statistics within iterations: blocks of samples, subselection, medians, outliers."""
