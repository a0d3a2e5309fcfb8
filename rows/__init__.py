"""Page 1, words become rows: its table and chart of row lengths, its texts."""
