"""Reading filled sheets back from photos and scans (``sheetgen scan``); needs the scan extra."""
