"""What one sheet looks like: its layout in millimetres, and the words and
looks (labels and themes) it is drawn with."""
