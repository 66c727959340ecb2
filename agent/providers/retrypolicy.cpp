#include "agent/providers/retrypolicy.h"

#include <QLocale>
#include <QRandomGenerator>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace Loopscope {

QByteArray headerValue(const HttpHeaders &headers, QByteArrayView name)
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

bool RetryPolicy::isRetryableStatus(int httpStatus)
{
    return httpStatus == 408 || httpStatus == 409 || httpStatus == 429 || httpStatus >= 500;
}

std::optional<qint64> RetryPolicy::serverDelay(const HttpHeaders &headers) const
{
    constexpr qint64 maxServerDelayMs = 60'000;
    bool ok = false;
    const double ms = headerValue(headers, "retry-after-ms").trimmed().toDouble(&ok);
    if (ok && ms > 0 && ms <= maxServerDelayMs)
        return qint64(std::ceil(ms));

    const QByteArray retryAfter = headerValue(headers, "retry-after").trimmed();
    if (retryAfter.isEmpty())
        return std::nullopt;
    const double seconds = retryAfter.toDouble(&ok);
    if (ok) {
        if (seconds > 0 && seconds * 1000 <= maxServerDelayMs)
            return qint64(std::ceil(seconds * 1000));
        return std::nullopt;
    }
    // An HTTP-date, e.g. "Wed, 21 Oct 2015 07:28:00 GMT".
    QString date = QString::fromLatin1(retryAfter);
    date.replace(u" GMT"_s, QString());
    const QDateTime at = QLocale::c().toDateTime(date, u"ddd, dd MMM yyyy HH:mm:ss"_s);
    if (!at.isValid())
        return std::nullopt;
    QDateTime utc = at;
    utc.setTimeZone(QTimeZone::utc());
    const QDateTime now = m_now ? m_now() : QDateTime::currentDateTimeUtc();
    const qint64 delay = now.msecsTo(utc);
    if (delay > 0 && delay <= maxServerDelayMs)
        return delay;
    return std::nullopt;
}

std::optional<qint64> RetryPolicy::retryDelay(int retriesDone, int httpStatus,
                                              const HttpHeaders &responseHeaders) const
{
    if (retriesDone >= m_maxRetries)
        return std::nullopt;

    const QByteArray shouldRetry = headerValue(responseHeaders, "x-should-retry").trimmed().toLower();
    if (shouldRetry == "false")
        return std::nullopt;
    if (shouldRetry != "true" && httpStatus != 0 && !isRetryableStatus(httpStatus))
        return std::nullopt;

    if (const auto fromServer = serverDelay(responseHeaders))
        return fromServer;

    const double baseMs = std::min(double(m_baseDelayMs) * std::pow(2.0, retriesDone), 16.0 * m_baseDelayMs);
    const double random = m_random ? m_random() : QRandomGenerator::global()->generateDouble();
    const double jitter = 1.0 - 0.25 * std::clamp(random, 0.0, 1.0);
    return qint64(baseMs * jitter);
}

} // namespace Loopscope
