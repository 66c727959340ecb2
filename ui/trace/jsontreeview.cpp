#include "ui/trace/jsontreeview.h"

#include "ui/trace/jsonhighlighter.h"

#include <QDateTime>
#include <QEvent>
#include <QFontDatabase>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QScrollBar>
#include <QSet>
#include <QTreeWidgetItemIterator>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

// Opened at first: the value's own keys and what each of them holds.
constexpr int ExpandedDepth = 1;
constexpr int PreviewLength = 120;
constexpr int PathRole = Qt::UserRole;
// A container whose rows are added when it is first opened, and for a "more"
// row, where the rows still to add start.
constexpr int PendingRole = Qt::UserRole + 1;
constexpr int MoreFromRole = Qt::UserRole + 2;
constexpr int DepthRole = Qt::UserRole + 3; // of the rows to add
// Rows added at a time: an array of thousands of stream events opens quickly.
constexpr int RowsPerBatch = 500;
// Microseconds after 2001-09-09: smaller numbers ending in "Us" are durations, not times.
constexpr qint64 EarliestTimeUs = 1'000'000'000'000'000;

JsonHighlighter::Token tokenOf(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String: return JsonHighlighter::Token::String;
    case QJsonValue::Double: return JsonHighlighter::Token::Number;
    case QJsonValue::Bool:
    case QJsonValue::Null: return JsonHighlighter::Token::Literal;
    default: return JsonHighlighter::Token::Punctuation;
    }
}

QString compact(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}

// The start of compact(value), about \a limit characters of it: a preview
// must not serialise megabytes to show a line.
void appendPreview(QString &out, const QJsonValue &value, qsizetype limit)
{
    if (out.size() > limit)
        return;
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        out += u'{';
        for (auto it = object.begin(); it != object.end() && out.size() <= limit; ++it) {
            if (it != object.begin())
                out += u',';
            out += compact(it.key()) + u':';
            appendPreview(out, it.value(), limit);
        }
        out += u'}';
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        out += u'[';
        for (qsizetype i = 0; i < array.size() && out.size() <= limit; ++i) {
            if (i > 0)
                out += u',';
            appendPreview(out, array.at(i), limit);
        }
        out += u']';
    } else if (value.isString()) {
        out += compact(value.toString().left(limit + 1));
    } else {
        out += compact(value);
    }
}

QString preview(const QJsonValue &value)
{
    QString out;
    appendPreview(out, value, PreviewLength);
    return out;
}

QString elided(QString text)
{
    if (text.size() > PreviewLength) {
        text.truncate(PreviewLength);
        text.append(u'…');
    }
    return text;
}

} // namespace

JsonTreeView::JsonTreeView(QWidget *parent)
    : QTreeWidget(parent)
{
    connect(this, &QTreeWidget::itemExpanded, this, &JsonTreeView::fillIn);
    setHeaderLabels({tr("Key"), tr("Value")});
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    header()->setSectionResizeMode(KeyColumn, QHeaderView::Interactive);
    header()->setStretchLastSection(true);
    setColumnWidth(KeyColumn, fontMetrics().horizontalAdvance(u'x') * 22);
}

bool JsonTreeView::isTimestamp(const QString &key, const QJsonValue &value)
{
    return key.endsWith(u"Us"_s) && value.isDouble() && value.toInteger() >= EarliestTimeUs;
}

QString JsonTreeView::valueText(const QString &key, const QJsonValue &value)
{
    if (isTimestamp(key, value)) {
        const QDateTime time = QDateTime::fromMSecsSinceEpoch(value.toInteger() / 1000);
        return QLocale().toString(time.time(), u"HH:mm:ss.zzz"_s);
    }
    if (value.isArray()) {
        const qsizetype count = value.toArray().size();
        if (count == 0)
            return u"[]"_s;
        return count == 1 ? tr("[1 item]") : tr("[%L1 items]").arg(count);
    }
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        if (object.isEmpty())
            return u"{}"_s;
        return elided(preview(object));
    }
    if (value.isString())
        return elided(preview(value).replace(u"\\n"_s, u"⏎"_s));
    return compact(value);
}

void JsonTreeView::setJson(const QJsonValue &value)
{
    if (value == m_value && topLevelItemCount() > 0)
        return;
    m_value = value;
    rebuild();
}

void JsonTreeView::rebuild()
{
    // Keep the reader's folding and place when a running step fills in.
    QSet<QString> expanded;
    QSet<QString> collapsed;
    for (QTreeWidgetItemIterator it(this); *it; ++it) {
        if ((*it)->childCount() > 0)
            ((*it)->isExpanded() ? expanded : collapsed).insert((*it)->data(KeyColumn, PathRole).toString());
    }
    const int scroll = verticalScrollBar()->value();
    const bool first = expanded.isEmpty() && collapsed.isEmpty();

    setUpdatesEnabled(false);
    clear();
    addChildren(invisibleRootItem(), m_value, 0);
    if (!first) {
        for (QTreeWidgetItemIterator it(this); *it; ++it) {
            const QString path = (*it)->data(KeyColumn, PathRole).toString();
            if (expanded.contains(path))
                (*it)->setExpanded(true);
            else if (collapsed.contains(path))
                (*it)->setExpanded(false);
        }
    }
    setUpdatesEnabled(true);
    verticalScrollBar()->setValue(scroll);
}

void JsonTreeView::addChildren(QTreeWidgetItem *parent, const QJsonValue &value, int depth, qsizetype from)
{
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        qsizetype i = from;
        for (auto it = object.begin() + from; it != object.end(); ++it, ++i) {
            if (i - from == RowsPerBatch)
                return addMoreRow(parent, value, depth, i);
            addItem(parent, it.key(), it.value(), depth);
        }
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (qsizetype i = from; i < array.size(); ++i) {
            if (i - from == RowsPerBatch)
                return addMoreRow(parent, value, depth, i);
            addItem(parent, u"[%1]"_s.arg(i), array.at(i), depth);
        }
    } else if (!value.isUndefined()) {
        addItem(parent, QString(), value, depth);
    }
}

// "… 9,500 more": opening it adds the next batch in its place.
void JsonTreeView::addMoreRow(QTreeWidgetItem *parent, const QJsonValue &value, int depth, qsizetype from)
{
    const qsizetype count = value.isObject() ? value.toObject().size() : value.toArray().size();
    auto *more = new QTreeWidgetItem(parent);
    more->setText(KeyColumn, tr("… %L1 more").arg(count - from));
    more->setForeground(KeyColumn, JsonHighlighter::color(JsonHighlighter::Token::Punctuation, palette()));
    more->setData(KeyColumn, PendingRole, QVariant::fromValue(value));
    more->setData(KeyColumn, MoreFromRole, from);
    more->setData(KeyColumn, PathRole, QString(parent->data(KeyColumn, PathRole).toString() + u"/…"_s));
    more->setData(KeyColumn, DepthRole, depth);
    more->setChildIndicatorPolicy(QTreeWidgetItem::ShowIndicator);
}

QTreeWidgetItem *JsonTreeView::addItem(QTreeWidgetItem *parent, const QString &key, const QJsonValue &value,
                                       int depth)
{
    auto *item = new QTreeWidgetItem(parent);
    const QString parentPath = parent->data(KeyColumn, PathRole).toString();
    item->setData(KeyColumn, PathRole, QString(parentPath + u'/' + key));
    item->setText(KeyColumn, key);
    item->setForeground(KeyColumn, JsonHighlighter::color(JsonHighlighter::Token::Key, palette()));
    const QString text = valueText(key, value);
    item->setText(ValueColumn, text);
    const bool time = isTimestamp(key, value);
    item->setForeground(ValueColumn, JsonHighlighter::color(
                                         time ? JsonHighlighter::Token::Number : tokenOf(value), palette()));
    if (time) {
        const QDateTime when = QDateTime::fromMSecsSinceEpoch(value.toInteger() / 1000);
        //: Tooltip of a time in the JSON tree: the local date and time, then the recorded number
        item->setToolTip(ValueColumn, tr("%1\n%2 µs since 1970")
                                          .arg(QLocale().toString(when, QLocale::LongFormat),
                                               QLocale().toString(value.toInteger())));
    } else if (value.isString() && text.size() != value.toString().size() + 2) {
        item->setToolTip(ValueColumn, elided(value.toString().left(4 * PreviewLength)));
    }
    const bool container = (value.isObject() && !value.toObject().isEmpty())
                           || (value.isArray() && !value.toArray().isEmpty());
    if (container) {
        // Rows below are made when the reader opens this one: a long history
        // or a stream of thousands of events costs nothing until then.
        item->setData(KeyColumn, PendingRole, QVariant::fromValue(value));
        item->setData(KeyColumn, DepthRole, depth + 1);
        item->setChildIndicatorPolicy(QTreeWidgetItem::ShowIndicator);
        if (depth < ExpandedDepth)
            item->setExpanded(true);
    }
    return item;
}

void JsonTreeView::fillIn(QTreeWidgetItem *item)
{
    const QVariant pending = item->data(KeyColumn, PendingRole);
    if (!pending.isValid())
        return;
    const QJsonValue value = pending.value<QJsonValue>();
    const int depth = item->data(KeyColumn, DepthRole).toInt();
    item->setData(KeyColumn, PendingRole, QVariant());
    item->setChildIndicatorPolicy(QTreeWidgetItem::DontShowIndicatorWhenChildless);
    const QVariant more = item->data(KeyColumn, MoreFromRole);
    if (!more.isValid()) {
        addChildren(item, value, depth);
        return;
    }
    QTreeWidgetItem *parent = item->parent() ? item->parent() : invisibleRootItem();
    delete item;
    addChildren(parent, value, depth, more.toLongLong());
}

void JsonTreeView::changeEvent(QEvent *event)
{
    QTreeWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        rebuild();
}

} // namespace Loopscope::Ui
