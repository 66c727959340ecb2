#pragma once

#include "agent/conversation/attachment.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

#include <optional>

namespace Loopscope {

/*!
    How full the model's context window is. The provider counts the tokens
    of each request it answers; the next request is that count plus what the
    conversation gained since: the answer (counted too) and new text, which
    is only estimated (about four characters a token), hence "≈".
*/
class ContextGauge final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::ContextGauge)

public:
    enum class Level { Unknown, Fine, Near, Over };
    static constexpr double NearShare = 0.9;

    static qint64 estimateTokens(const QString &text) { return (text.size() + 3) / 4; }
    // \a text with \a attachments, each counted as the loop's TokenEstimator counts it (an image
    // about 1,500 tokens, a text file by its text).
    static qint64 estimateTokens(const QString &text, const QList<Attachment> &attachments);
    static Level level(qint64 tokens, std::optional<qint64> window);
    // "12.3k / 128k tokens"; "12.3k tokens" without a known window.
    static QString describe(qint64 tokens, std::optional<qint64> window, bool estimated = false);
    // The chat's notice when a request of ≈tokens is near or over the window; empty when it fits.
    static QString warning(qint64 tokens, std::optional<qint64> window);
};

} // namespace Loopscope
