#include "agent/transcript/attachmentdata.h"

#include <QJsonArray>

#include <functional>
#include <utility>

using namespace Qt::StringLiterals;

namespace Loopscope::Internal {

namespace {

// Changes an attachment object; nullopt leaves it as it is.
using AttachmentEdit = std::function<std::optional<QJsonObject>(const QJsonObject &)>;

bool isImage(const QJsonObject &attachment)
{
    return attachment.value(u"kind"_s).toString() == u"image"_s && attachment.value(u"sha256"_s).isString();
}

// Walks \a value, applying \a edit to the elements of every "attachments" array; subtrees without one are
// read, never copied, and only the objects and arrays on the way to a change are rebuilt.
std::optional<QJsonValue> walk(const QJsonValue &value, const AttachmentEdit &edit,
                               bool inAttachments = false)
{
    if (value.isArray()) {
        QJsonArray array = value.toArray();
        QList<std::pair<qsizetype, QJsonValue>> changes;
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QJsonValue element = array.at(i);
            std::optional<QJsonValue> changed;
            if (inAttachments && element.isObject()) {
                if (std::optional<QJsonObject> edited = edit(element.toObject()))
                    changed = *edited;
            } else {
                changed = walk(element, edit);
            }
            if (changed)
                changes.append({i, std::move(*changed)});
        }
        if (changes.isEmpty())
            return std::nullopt;
        for (const auto &[index, changed] : std::as_const(changes))
            array.replace(index, changed);
        return array;
    }
    if (!value.isObject())
        return std::nullopt;
    QJsonObject object = value.toObject();
    QList<std::pair<QString, QJsonValue>> changes;
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (!it.value().isArray() && !it.value().isObject())
            continue;
        if (std::optional<QJsonValue> changed = walk(it.value(), edit, it.key() == u"attachments"_s))
            changes.append({it.key(), std::move(*changed)});
    }
    if (changes.isEmpty())
        return std::nullopt;
    for (const auto &[key, changed] : std::as_const(changes))
        object.insert(key, changed);
    return object;
}

} // namespace

std::optional<QJsonValue> AttachmentData::take(const QJsonValue &value, QJsonObject &table)
{
    return walk(value, [&table](const QJsonObject &attachment) -> std::optional<QJsonObject> {
        if (!isImage(attachment) || !attachment.contains(u"data"_s))
            return std::nullopt;
        const QString sha256 = attachment.value(u"sha256"_s).toString();
        if (!table.contains(sha256))
            table.insert(sha256, attachment.value(u"data"_s));
        QJsonObject reference = attachment;
        reference.remove(u"data"_s);
        return reference;
    });
}

std::optional<QJsonValue> AttachmentData::restore(const QJsonValue &value, const QJsonObject &table,
                                                  QString &missing)
{
    return walk(value, [&table, &missing](const QJsonObject &attachment) -> std::optional<QJsonObject> {
        if (!isImage(attachment) || attachment.contains(u"data"_s))
            return std::nullopt;
        const QString sha256 = attachment.value(u"sha256"_s).toString();
        const QJsonValue data = table.value(sha256);
        if (!data.isString()) {
            if (missing.isEmpty())
                missing = sha256;
            return std::nullopt;
        }
        QJsonObject whole = attachment;
        whole.insert(u"data"_s, data);
        return whole;
    });
}

} // namespace Loopscope::Internal
