#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <optional>

namespace Loopscope::Internal {

/*!
    A session file keeps each image's bytes once. The history's question and
    every recorded request that carries the image (the trace's requests)
    name it by its sha256; the bytes, base64, sit once in the file's
    "attachmentData" table. In memory a transcript stays self-contained (every
    attachment with its "data"), so everything that reads a transcript's JSON
    (replay, fork, compare, the exports) is unchanged: the table is made when
    the file is written and undone when it is read.

    Only the elements of an "attachments" array are attachments: a tool's
    arguments or result that happens to look like one is left as it is.
*/
class AttachmentData final
{
public:
    // \a value without its image attachments' "data", each put into \a table under its sha256;
    // nullopt when it holds none (then nothing was copied).
    static std::optional<QJsonValue> take(const QJsonValue &value, QJsonObject &table);
    // \a value with each image attachment's "data" back from \a table; nullopt when it holds none
    // without it. An attachment the table lacks is named in \a missing (its sha256).
    static std::optional<QJsonValue> restore(const QJsonValue &value, const QJsonObject &table,
                                             QString &missing);
};

} // namespace Loopscope::Internal
