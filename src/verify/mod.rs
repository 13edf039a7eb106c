//! Independent checkers: model level and puzzle level. Nothing here calls an encoder.
