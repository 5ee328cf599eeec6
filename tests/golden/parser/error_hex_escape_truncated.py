# A \x escape needs two hex digits (a fuzzer found the lexer threw std::invalid_argument).
t = "\x&A"
