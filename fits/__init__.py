"""Fits of W_Q and W_K: the one queue, jobs with Stop, waiting, one FitRecipe, and which weights a page uses."""
