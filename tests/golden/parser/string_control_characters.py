# Control characters in a plain string are its own text, never f-string field markers.
a = "tab\there\x01one\x02two"
b = f"{a!r}:{a:>4}"
