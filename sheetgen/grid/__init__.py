"""What a grid is and how it is read: the frozen model, the file format as data
(validation and JSON Schema), the checks on plain data, and the YAML boundary."""
