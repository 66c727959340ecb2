#pragma once

#include "agent/trace/jsonfields.h"
#include "agent/transcript/transcript.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QUrl>

#include <optional>

// The session file's two readers, which TranscriptFile (transcript.cpp) calls once the bytes have
// passed its gates: the checked one (transcriptreader.cpp) names every problem, the fast one
// (transcriptfastreader.cpp) reads what Loopscope wrote in one simdjson parse, or gives up.

namespace Loopscope::Internal {

// The checked reader: formats 1 to 3, every field checked, the trace through Trace::readJson().
// The document is taken by value and let go of part by part: a large file's JSON takes twice its
// size in memory, and the trace is checked only once everything else is released.
TranscriptLoadResult readDocument(QJsonDocument document);

// Everything of format 2 or 3 but the messages and the trace; the fast reader shares it.
Transcript readFormat2Header(JsonFields &top, JsonProblem &problem);

// A session of format 2 or 3 read from \a bytes in one parse, or nullopt when the checked path
// must. The bytes are let go of once parsed (when the caller handed over the only copy).
std::optional<TranscriptLoadResult> readFast(QByteArray bytes);

// A URL as the session file keeps it: without credentials.
QUrl withoutSecrets(const QUrl &url);

} // namespace Loopscope::Internal
