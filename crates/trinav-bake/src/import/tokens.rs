//! Whitespace-separated numbers with the line each came from, for the text importers.

use crate::import::ImportError;

/// Numbers of a text file with the line each came from.
pub(crate) struct Tokens<'a> {
    file: &'a str,
    words: Vec<(usize, &'a str)>,
    at: usize,
}

impl<'a> Tokens<'a> {
    pub(crate) fn new(text: &'a str, file: &'a str) -> Self {
        let words = text
            .lines()
            .enumerate()
            .flat_map(|(i, l)| l.split_whitespace().map(move |w| (i + 1, w)))
            .collect();
        Tokens { file, words, at: 0 }
    }

    pub(crate) fn line(&self) -> usize {
        self.words.get(self.at).or(self.words.last()).map_or(0, |w| w.0)
    }

    pub(crate) fn error(&self, line: usize, reason: String) -> ImportError {
        ImportError::Syntax { file: self.file.to_string(), line, reason }
    }

    pub(crate) fn next<T: std::str::FromStr>(&mut self, what: &str) -> Result<(usize, T), ImportError> {
        let Some(&(line, word)) = self.words.get(self.at) else {
            return Err(self.error(self.line(), format!("file ends where {what} was expected")));
        };
        self.at += 1;
        word.parse().map(|v| (line, v)).map_err(|_| self.error(line, format!("bad {what}: `{word}`")))
    }

    pub(crate) fn coordinate(&mut self, what: &str) -> Result<f64, ImportError> {
        let (line, v): (usize, f64) = self.next(what)?;
        if !v.is_finite() || v.abs() > crate::validate::MAX_LEVEL_COORDINATE {
            return Err(self.error(
                line,
                format!("{what} {v} is not finite or exceeds ±{}", crate::validate::MAX_LEVEL_COORDINATE),
            ));
        }
        Ok(v)
    }

    pub(crate) fn count(&mut self, what: &str, max: usize) -> Result<(usize, usize), ImportError> {
        let (line, n): (usize, usize) = self.next(what)?;
        if n > max {
            return Err(self.error(line, format!("{what} {n} exceeds the {max} the file can hold")));
        }
        Ok((line, n))
    }

    /// Refuses numbers left after the last expected one.
    pub(crate) fn finish(&self, after: &str) -> Result<(), ImportError> {
        if self.at < self.words.len() {
            return Err(self.error(self.line(), format!("unexpected data after {after}")));
        }
        Ok(())
    }
}
