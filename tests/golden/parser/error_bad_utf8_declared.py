# coding: utf-8
x = "Ã("
