"""Page 8, a real model on your sentence: all-MiniLM-L6-v2's 72 heads beside our one head, word by word."""
