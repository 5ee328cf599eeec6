# a comment
x = "ÿ"
