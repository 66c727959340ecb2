#include "agent/knowledge/knowledgequery.h"

#include <QRegularExpression>
#include <QSet>

using namespace Qt::StringLiterals;

namespace Loopscope {

static bool isStopWord(const QString &word)
{
    static const QSet<QString> stopWords{
        u"a"_s,    u"about"_s, u"an"_s,     u"and"_s,   u"are"_s,   u"as"_s,    u"at"_s,   u"be"_s,
        u"but"_s,  u"by"_s,    u"can"_s,    u"could"_s, u"did"_s,   u"do"_s,    u"does"_s, u"for"_s,
        u"from"_s, u"had"_s,   u"has"_s,    u"have"_s,  u"how"_s,   u"i"_s,     u"if"_s,   u"in"_s,
        u"into"_s, u"is"_s,    u"it"_s,     u"its"_s,   u"me"_s,    u"my"_s,    u"of"_s,   u"on"_s,
        u"or"_s,   u"our"_s,   u"should"_s, u"so"_s,    u"than"_s,  u"that"_s,  u"the"_s,  u"their"_s,
        u"them"_s, u"then"_s,  u"there"_s,  u"these"_s, u"they"_s,  u"this"_s,  u"to"_s,   u"was"_s,
        u"we"_s,   u"were"_s,  u"what"_s,   u"when"_s,  u"where"_s, u"which"_s, u"who"_s,  u"why"_s,
        u"will"_s, u"with"_s,  u"would"_s,  u"you"_s,   u"your"_s,
    };
    return stopWords.contains(word);
}

QStringList KnowledgeQuery::terms(const QString &question)
{
    // Letters, digits and the underscore: what FTS5's unicode61 tokenizer keeps as a token
    // (it splits on the underscore too; a quoted phrase matches the parts in order).
    static const QRegularExpression word(u"[\\p{L}\\p{N}_]+"_s);
    QStringList all;
    QStringList kept;
    for (auto it = word.globalMatch(question); it.hasNext();) {
        const QString term = it.next().captured().toLower();
        if (all.contains(term))
            continue;
        all.append(term);
        if (!isStopWord(term))
            kept.append(term);
    }
    // A question made only of stop words ("what is it") still searches for them.
    return kept.isEmpty() ? all : kept;
}

QString KnowledgeQuery::matchExpression(const QString &question)
{
    QStringList quoted;
    for (const QString &term : terms(question))
        quoted.append(u'"' + term + u'"'); // a term holds no '"': it is letters and digits only
    return quoted.join(u" OR "_s);
}

} // namespace Loopscope
