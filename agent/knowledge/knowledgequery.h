#pragma once

#include <QString>
#include <QStringList>

namespace Loopscope {

/*!
    Makes a user's or a model's question into an FTS5 query that finds the
    passages sharing some of its words, best first by BM25, rather than only
    the passages holding every one: the words are taken out (punctuation and
    FTS5's own syntax - quotes, '*', parentheses, NEAR, AND, OR, NOT - become
    plain text), common English stop words are dropped, and each remaining
    word, quoted, is OR-ed with the others.
*/
class KnowledgeQuery final
{
public:
    // The words searched for, lower-case, each once, in the question's order.
    static QStringList terms(const QString &question);
    // The FTS5 MATCH expression: "alpha" OR "beta"; empty when the question has no words.
    static QString matchExpression(const QString &question);
};

} // namespace Loopscope
