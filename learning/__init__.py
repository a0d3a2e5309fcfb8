"""Page 5, learning: training towards the learner's targets, the corpus run, their charts, tables and texts."""
