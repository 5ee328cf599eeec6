# An f-string whose text holds \x01 or \x02, the characters its template marks fields with:
# read as a field, it overread the template (fuzz_python_parser). UNSUPPORTED, not a crash.
b = ("x", f"{name!r:>10} and {{braces}}\x01")
