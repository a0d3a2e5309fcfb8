"""Class mode: panels (the teacher's and a student's), the class database (classes.py, in SQL), its questions and rate
limits, the seat a browser keeps, the watch, and their texts."""
