"""What every feature shares: Settings <-> URL (state), charts onto the page (render), the shared chart builders
(charts), arrays -> tables (tables), the shared views (views), the texts (text, catalogue)."""
