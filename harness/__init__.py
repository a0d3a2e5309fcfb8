"""What the tests and the benchmarks share to drive the dashboard: pages in AppTest, a real server, Chromium."""
