"""Pages and bytes: drawing primitives, imposition on paper, and the boundaries
to reportlab (PDF) and PDFium (PNG), with font subsetting."""
