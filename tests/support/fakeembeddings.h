#pragma once

#include "agent/providers/providerkind.h"
#include "tests/support/fakehttpserver.h"

#include <QList>
#include <QStringList>

#include <functional>

namespace Loopscope::Testing {

using VectorOf = std::function<QList<float>(const QString &text)>;

// A vector that carries meaning, as a real embedding model's does, without a model: one dimension per
// concept (vehicles, cooking, money, networks, weather), counting the words of the text that belong to it,
// and a last, small dimension so that no vector is zero. "car" and "automobile" share no letters but are
// close; "car" and "pasta" are far apart. ConceptDimensions long.
inline constexpr int ConceptDimensions = 6;
QList<float> conceptVector(const QString &text);

// The texts an embeddings request in \a kind's wire format asks for: OpenAI's and Ollama's "input",
// Gemini's requests' parts.
QStringList embeddingsInputs(ProviderKind kind, const QJsonObject &body);

// An embeddings response in \a kind's wire format with one vector per text (OpenAI's "data" with
// their indexes, in reverse order as servers may send them; Ollama's "embeddings"; Gemini's values).
QJsonObject embeddingsResponse(ProviderKind kind, const QList<QList<float>> &vectors);

// Answers every request as an embeddings server of \a kind would, with \a vectorOf each input.
FakeHttpServer::Handler embeddingsHandler(ProviderKind kind, VectorOf vectorOf);

} // namespace Loopscope::Testing
