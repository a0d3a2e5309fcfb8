"""Page 2, the factor matrix: its texts (its views are kit's attention view and the swap)."""
