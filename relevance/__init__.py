"""Page 4, relevance between words: the measures, the expected order, the ranking, their texts."""
