"""Page 3, why a dot product measures relevance: a pair dimension by dimension, its charts, tables and texts."""
