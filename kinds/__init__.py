"""Page 6, three kinds of attention: the tabs, several heads, the line view, their charts, tables and texts."""
