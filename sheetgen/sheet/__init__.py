"""What one sheet looks like: its plan (named boxes and their meaning, in
millimetres), the pictograms and the loop that draws the plan, and the words
and looks (labels and themes) it is drawn with."""
