#pragma once

#include <QJsonValue>
#include <QTreeWidget>

namespace Loopscope::Ui {

/*!
    A JSON value as a tree a person can fold: one row per key or array element,
    values coloured by type like the Raw text, empty arrays and objects written
    `[]` and `{}`, and the top two levels open so a request's messages are one
    click away without the whole history spilling out. Rows are made when
    their parent is first opened, a few hundred at a time, so a value of
    megabytes costs what is on the screen. Keys appear in the
    value's own order, which is the order they went over the wire: the clients
    serialise the same QJsonObject they record. Times recorded in microseconds
    since the epoch (keys ending in "Us") read as local clock times, with the
    date and the raw number on hover.
*/
class JsonTreeView final : public QTreeWidget
{
    Q_OBJECT

public:
    enum Column { KeyColumn, ValueColumn };

    explicit JsonTreeView(QWidget *parent = nullptr);

    // Shows the value; keeps what the reader folded or opened when the shape did not change.
    void setJson(const QJsonValue &value);
    QJsonValue json() const { return m_value; }

    // What a value's row shows, e.g. `"text"`, `42`, `[]`, `[3 items]`, `05:43:26.772`.
    static QString valueText(const QString &key, const QJsonValue &value);
    // A time for a key ending in "Us" holding microseconds since the epoch.
    static bool isTimestamp(const QString &key, const QJsonValue &value);

protected:
    void changeEvent(QEvent *event) override;

private:
    void addChildren(QTreeWidgetItem *parent, const QJsonValue &value, int depth, qsizetype from = 0);
    void addMoreRow(QTreeWidgetItem *parent, const QJsonValue &value, int depth, qsizetype from);
    void fillIn(QTreeWidgetItem *item);
    QTreeWidgetItem *addItem(QTreeWidgetItem *parent, const QString &key, const QJsonValue &value, int depth);
    void rebuild();

    QJsonValue m_value;
};

} // namespace Loopscope::Ui
