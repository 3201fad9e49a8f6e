"""distlesson: the numbers behind a course on distributed training of large language models."""
