//! The output of a driver run as it is written: into a buffer (which can
//! take back a piece found invalid after it was printed) or straight to a
//! writer, with `// -----` lines between the pieces of a split input.

use super::SPLIT_MARKER;

/// Where a run's output goes.
pub(super) enum Sink<'w> {
    /// A buffer (which can take back a piece that failed late).
    Buffer(&'w mut Vec<u8>),
    /// A writer, written as the output is printed.
    Stream(&'w mut dyn std::io::Write),
}

/// The output of a run as it is written: the pieces that succeed, with
/// [`SPLIT_MARKER`] lines between them.
pub(super) struct Output<'w> {
    sink: Sink<'w>,
    pieces: usize,
    /// The first write error (later writes are dropped).
    pub(super) error: Option<std::io::Error>,
}

impl<'w> Output<'w> {
    /// An output to `sink`, with nothing written yet.
    pub(super) fn new(sink: Sink<'w>) -> Self {
        Self { sink, pieces: 0, error: None }
    }

    /// Where the bytes go.
    pub(super) fn writer(&mut self) -> &mut dyn std::io::Write {
        match &mut self.sink {
            Sink::Buffer(buffer) => *buffer,
            Sink::Stream(writer) => *writer,
        }
    }

    /// Starts the output of one more piece (after a marker line when
    /// another came before it); returns where it starts, for
    /// [`Output::retract`].
    pub(super) fn begin_piece(&mut self) -> usize {
        let start = match &self.sink {
            Sink::Buffer(buffer) => buffer.len(),
            Sink::Stream(_) => 0,
        };
        if self.pieces > 0 {
            self.write(format!("{SPLIT_MARKER}\n").as_bytes());
        }
        self.pieces += 1;
        start
    }

    /// Takes back the piece begun at `start` (its output was found invalid
    /// after it was printed). A writer keeps what it was given: the run
    /// fails, and its output is not to be used.
    pub(super) fn retract(&mut self, start: usize) {
        if let Sink::Buffer(buffer) = &mut self.sink {
            buffer.truncate(start);
            self.pieces -= 1;
        }
    }

    /// Writes one whole piece.
    pub(super) fn piece(&mut self, bytes: &[u8]) {
        self.begin_piece();
        self.write(bytes);
    }

    /// Writes `bytes`, unless an earlier write failed.
    pub(super) fn write(&mut self, bytes: &[u8]) {
        if self.error.is_none() {
            self.error = self.writer().write_all(bytes).err();
        }
    }
}
