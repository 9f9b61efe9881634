"""The game at the table: marks files, scoring, lucky numbers."""
