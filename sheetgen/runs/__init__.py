"""Print runs: jobs, batches, the download pack, and atomic output."""
