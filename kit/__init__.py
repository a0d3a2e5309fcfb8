"""Presentation shared by the pages: settings, sidebar, text, tables and charts."""
