"""The site's own number and date formats where Django's locale differs from how the pages write
(Django's FORMAT_MODULE_PATH: a language's module here is read before Django's)."""
