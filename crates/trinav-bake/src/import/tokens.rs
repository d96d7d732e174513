//! Whitespace-separated numbers with the line each came from, for the text importers.

use crate::import::{ImportError, Malformed};

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

    pub(crate) fn error(&self, line: usize, reason: Malformed) -> ImportError {
        ImportError::Syntax { file: self.file.to_string(), line, reason }
    }

    pub(crate) fn next<T: std::str::FromStr>(
        &mut self,
        what: &'static str,
    ) -> Result<(usize, T), ImportError> {
        let Some(&(line, word)) = self.words.get(self.at) else {
            return Err(self.error(self.line(), Malformed::UnexpectedEnd { expected: what }));
        };
        self.at += 1;
        word.parse()
            .map(|v| (line, v))
            .map_err(|_| self.error(line, Malformed::BadNumber { what, word: word.to_string() }))
    }

    pub(crate) fn coordinate(&mut self, what: &'static str) -> Result<f64, ImportError> {
        let (line, value): (usize, f64) = self.next(what)?;
        if !value.is_finite() || value.abs() > crate::validate::MAX_LEVEL_COORDINATE {
            return Err(self.error(line, Malformed::Coordinate { what, value }));
        }
        Ok(value)
    }

    pub(crate) fn count(&mut self, what: &'static str, max: usize) -> Result<(usize, usize), ImportError> {
        let (line, count): (usize, usize) = self.next(what)?;
        if count > max {
            return Err(self.error(line, Malformed::CountTooLarge { what, count, max }));
        }
        Ok((line, count))
    }

    /// Refuses numbers left after the last expected one.
    pub(crate) fn finish(&self, after: &'static str) -> Result<(), ImportError> {
        if self.at < self.words.len() {
            return Err(self.error(self.line(), Malformed::TrailingData { after }));
        }
        Ok(())
    }
}
